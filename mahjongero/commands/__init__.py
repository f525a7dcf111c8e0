"""Sub-commands of ``mahjongero``; each module defines ``register(subparsers)``."""
