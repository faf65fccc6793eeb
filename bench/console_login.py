"""How long the console's sign-in takes to answer, by answer: a wrong password, a name with no account, a locked
name, and a right password (a real PostgreSQL, the console in-process). The answers should take the same time,
so that timing tells no one which names exist or are locked.

    python bench/console_login.py [--tries 15]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    import psycopg
    from starlette.testclient import TestClient

    from floor.console import auth
    from floor.console.app import Console, create_app
    from floor.console.db import Database
    from floor.migrate import migrate
    from floor.pg import LocalServer

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=15, help="sign-ins timed per answer (default 15)")
    args = parser.parse_args()
    server = LocalServer.create()
    server.start()
    try:
        dsn = server.create_database("bench_login")
        with psycopg.connect(dsn) as conn:
            migrate(conn)
            for name in ("known", "locked"):
                auth.add_account(conn, name, "the right password", "supervisor", "bench")
        db = Database(dsn)
        web = TestClient(create_app(Console(db)), follow_redirects=False)
        token = re.search(r'name="csrf" value="([^"]+)"', web.get("/login").text)[1]  # type: ignore[index]
        for _ in range(auth.MAX_TRIES):
            web.post("/login", data={"csrf": token, "name": "locked", "password": "a guess"})

        def timed(name: str, password: str, expected: int) -> list[float]:
            seconds = []
            for _ in range(args.tries):
                started = time.perf_counter()
                answer = web.post("/login", data={"csrf": token, "name": name, "password": password})
                seconds.append(time.perf_counter() - started)
                assert answer.status_code == expected, (name, answer.status_code)
                if name == "known" and password != "a guess":
                    web.cookies.clear()
                    web.cookies.set("floor_login_csrf", token)
                elif name == "known":  # never let the wrong passwords lock it
                    with psycopg.connect(dsn) as conn:
                        conn.execute("DELETE FROM console_sign_in_failures WHERE name = 'known'")
            return seconds

        print(f"sign-in answers, {args.tries} tries each (median and spread, ms):")
        for label, name, password, expected in (("wrong password", "known", "a guess", 401),
                                                ("no such account", "nobody", "a guess", 401),
                                                ("locked name", "locked", "a guess", 401),
                                                ("right password", "known", "the right password", 303)):
            seconds = timed(name, password, expected)
            print(f"  {label:16} {statistics.median(seconds) * 1000:7.1f}  "
                  f"({min(seconds) * 1000:.1f} to {max(seconds) * 1000:.1f})")
        db.close()
    finally:
        server.remove()
    return 0


if __name__ == "__main__":
    sys.exit(main())
