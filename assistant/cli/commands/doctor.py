"""``knockdown doctor``: PASS/WARN/FAIL for each part of the appliance, with a fix for each failure."""

from __future__ import annotations

import argparse
import json

from assistant import doctor


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check that this Pi is ready: model, pins, cameras, config, store, service, network",
        description=(
            "Checks the Pi model, the pin factory, the cameras and their fps, the config, the store "
            "and free disk, the systemd service and the network address. Exits 0 when nothing "
            "FAILs. On the appliance, 'sudo knockdown-doctor' runs it as the service runs."
        ),
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help=f"config file to check (default: {doctor.APPLIANCE_CONFIG} if it exists, else the built-in defaults)",
    )
    parser.add_argument(
        "--data-dir", metavar="DIR", help="store directory to check (default: the config's store.data_dir)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    report = doctor.run_checks(config_path=args.config, data_dir=args.data_dir, probes=doctor.default_probes())
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(doctor.format_report(report))
    return 0 if report.ok else 1
