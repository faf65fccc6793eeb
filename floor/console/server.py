"""The console served by uvicorn in a background thread (the demo and the browser tests)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from engine.errors import InputError


class BackgroundServer:
    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        if port == 0:
            with socket.socket() as sock:
                sock.bind((host, 0))
                port = int(sock.getsockname()[1])
        self.url = f"http://{host}:{port}/"
        self.server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, name="floor-console", daemon=True)

    def start(self, timeout_s: float = 20) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise InputError(f"the console could not listen on {self.url} (is the port taken? pick another "
                                 "with --port)")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
