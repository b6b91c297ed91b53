"""A TCP proxy between the service and PostgreSQL that can cut a connection at a chosen moment of the protocol."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass


@dataclass
class Cut:
    """Cut the connection whose client sends `pattern`: before forwarding it, or once the server starts to answer.

    With `swallow`, the server's answer is lost instead and the connection stays open: the client hears nothing, as
    behind a network or a proxy that loses an answer without closing anything."""

    pattern: bytes
    before_sending: bool
    swallow: bool = False


class CuttingProxy:
    """Forwards 127.0.0.1:<port> to PostgreSQL; `arm(Cut(...))` cuts the next connection that sends the pattern."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._cut: Cut | None = None
        self._lock = threading.Lock()
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self, cut: Cut) -> None:
        with self._lock:
            self._cut = cut

    def _take(self, chunk: bytes) -> Cut | None:
        with self._lock:
            if self._cut is not None and self._cut.pattern in chunk:
                cut, self._cut = self._cut, None
                self.cuts += 1
                return cut
        return None

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            doomed = _Doomed()
            threading.Thread(target=self._upstream, args=(client, server, doomed), daemon=True).start()
            threading.Thread(target=self._downstream, args=(server, client, doomed), daemon=True).start()

    @staticmethod
    def _close(*sockets: socket.socket) -> None:
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _upstream(self, client: socket.socket, server: socket.socket, doomed: threading.Event) -> None:
        try:
            while chunk := client.recv(65536):
                cut = self._take(chunk)
                if cut is not None and cut.before_sending:
                    self._close(client, server)
                    return
                if cut is not None:
                    doomed.swallow = cut.swallow
                    doomed.set()  # before sending: the answer may come back before this thread runs again
                server.sendall(chunk)
        except OSError:
            pass
        self._close(client, server)

    def _downstream(self, server: socket.socket, client: socket.socket, doomed: threading.Event) -> None:
        try:
            while chunk := server.recv(65536):
                if doomed.is_set():
                    # The server has the statement and is answering; the client never hears the answer.
                    if doomed.swallow:
                        continue
                    self._close(client, server)
                    return
                client.sendall(chunk)
        except OSError:
            pass
        self._close(client, server)

    def close(self) -> None:
        self.listener.close()


class _Doomed(threading.Event):
    """Set once the connection's cut is armed; `swallow` says how the answer is lost."""

    swallow = False
