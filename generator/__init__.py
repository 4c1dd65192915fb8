"""quicken's instruction generator.

The pipeline, one module per stage:

    instructions/*.inst --lexer--> tokens --parser--> syntax tree (ast.py)
        --analysis--> semantic model (model.py) --emitters--> runtime/generated/*

Run it with ``/usr/bin/python3 -m generator`` from the project root (see __main__.py).
"""
