from mahjongero.cli import main

raise SystemExit(main())
