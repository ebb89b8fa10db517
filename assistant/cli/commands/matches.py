"""``knockdown matches list|export|import``: every match ever played, kept in the store."""

from __future__ import annotations

import sys
from pathlib import Path

from assistant.cli.commands._common import fail
from assistant.cli.commands._service_args import add_data_options, config_from


def register(subparsers) -> None:
    parser = subparsers.add_parser("matches", help="list, export or import stored matches",
                                   description="Every match is kept in the data dir's SQLite store.")
    commands = parser.add_subparsers(dest="matches_command", metavar="SUBCOMMAND")
    parser.set_defaults(handler=lambda args: (parser.print_help(sys.stderr), 2)[1])

    listing = commands.add_parser("list", help="one line per stored match")
    add_data_options(listing)
    listing.set_defaults(handler=run_list)

    export = commands.add_parser("export", help="print a match record (header + one event per line)")
    export.add_argument("match_id", metavar="ID", type=int)
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    add_data_options(export)
    export.set_defaults(handler=run_export)

    importer = commands.add_parser("import", help="keep a match record from a file (checked by replaying it)")
    importer.add_argument("file", metavar="FILE")
    add_data_options(importer)
    importer.set_defaults(handler=run_import)


def _open_store(args):
    from assistant.store import MatchStore

    return MatchStore.in_dir(config_from(args).data_dir)


def _errors():
    from assistant.service import ServiceError
    from assistant.store import StoreError

    return ServiceError, StoreError


def run_list(args) -> int:
    try:
        with _open_store(args) as store:
            rows = store.matches()
            current = store.current_match_id()
    except _errors() as error:
        return fail(str(error))
    if not rows:
        print("no matches yet")
        return 0
    print(f"{'ID':>4}  {'CREATED':<24}  {'STATUS':<12}  {'EVENTS':>6}  PLAYERS")
    for row in rows:
        info = row.to_json()
        players = " vs ".join(info["players"] or [])
        mark = "*" if row.id == current else " "
        print(f"{row.id:>3}{mark}  {row.created:<24}  {row.status:<12}  {row.event_count:>6}  {players}")
    return 0


def run_export(args) -> int:
    from assistant.service.core import export_record
    from assistant.service.wiring import RulesEngine

    try:
        engine = RulesEngine()
        with _open_store(args) as store:
            text = export_record(store, engine, args.match_id)
    except (*_errors(), ImportError) as error:
        return fail(str(error))
    except ValueError as error:  # the engine's RecordError: a stored match no longer replays
        return fail(f"match {args.match_id!r} does not replay: {error}", code=1)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def run_import(args) -> int:
    from assistant.service.core import import_record
    from assistant.service.wiring import RulesEngine

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        return fail(f"cannot read {args.file!r}: {error.strerror}")
    try:
        engine = RulesEngine()
        with _open_store(args) as store:
            match_id = import_record(store, engine, text, who="cli")
    except (*_errors(), ImportError) as error:
        return fail(str(error))
    except ValueError as error:  # RecordError names the line
        return fail(f"{args.file}: {error}")
    print(f"imported {args.file} as match {match_id}")
    return 0
