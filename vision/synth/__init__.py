"""Synthetic training data: every tile drawn by code, placed on rendered tables.

- :mod:`vision.synth.faces`: tile faces in many styles (fonts, inks, 萬/万, 伍, indices, ...).
- :mod:`vision.synth.render`: a small numpy/OpenCV 3-D box renderer with exact visible boxes.
- :mod:`vision.synth.scenes`: hand-photo and table-from-above layouts, lighting, effects.
- :mod:`vision.synth.clutter`: chairs at the table's edge, remotes and phones on it (never labelled).
- :mod:`vision.synth.dataset`: YOLO scenes, classifier crops and the contact sheet writers.

Command line: ``mahjongero synth scenes|crops|sheet`` (see ``datasets/README.md``).
"""
