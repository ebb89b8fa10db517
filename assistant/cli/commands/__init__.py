"""One module per command group; each defines ``register(subparsers)``.

A command's handler is set with ``parser.set_defaults(handler=fn)``; ``fn(args)``
returns the exit code. User errors are printed to stderr as ``knockdown: error: ...``
and return 2 (see :func:`assistant.cli.commands._common.fail`).
"""
