"""The fast lane: the shortcuts that save CPU on the requests a table sends most, each in place of something
Litestar's or psycopg's documentation builds, each bound to give the same answers as what it replaces.

Turn it off with `QUARTERMASTER_FAST_LANE=off` (service/platform/settings.py, `Settings.fast_lane`; on by default). Off,
`create_app` builds the app as Litestar's documentation does (no Front, no DIRECT, Litestar's Request, Response and
Prometheus middleware), and the Store is told to write through psycopg's cursor: of this package only
`direct.json_answer` runs, and it answers Litestar's own Response. The API tests run both ways (`.ci/run`), and
tests/api/test_direct_call.py sends the same requests to an app with the lane and one without, on one database, and
compares status, body and headers.

The shortcuts, what each replaces, and the contract it keeps:

- **The Front** (front.py) replaces Litestar's app-layer middleware, its `before_send` hook, its exception handler
  for the router's refusals (service/http/edge.py, what the app uses with the lane off) and its router's own call. It is
  one ASGI layer set as `app.asgi_handler`, around the router: it gives every request its id, headers, NUL refusal,
  count and log line, and where the app's handler is the router inside its exception middleware and nothing else,
  it looks the route up once and calls it as the router would. Contract: every answer is the one the router and
  edge.py give (404, 405 and an invalid Host included); it uses private pieces of Litestar, which pyproject.toml pins
  to one minor version and tests/unit/test_private_pieces.py names.
- **The request metrics** (request_metrics.py) replace Litestar's Prometheus middleware (service.metrics.PROMETHEUS):
  the Front counts requests in plain floats read at each scrape. Contract: the same families, help, labels, buckets
  and values as the middleware's (tests/unit/test_request_metrics.py compares them with prometheus_client's own).
- **The direct call** (direct.py) replaces Litestar's dependency injection and response building on the two routes
  a table calls once per event (appending and rolling), which `create_app` registers under `DIRECT`: their handler
  is called with service.auth's four arguments from service.auth's own functions, and a bare JSON answer is sent as
  Litestar's ASGIResponse would write it. Contract: a handler it cannot call exactly as Litestar would (another
  signature, a guard, a hook, a DTO, a request class) goes through Litestar unchanged, and every answer, problem
  answers included, is byte for byte Litestar's.
- **The wire** (wire.py, the store's) replaces psycopg's cursor for the one statement of a one-note append: it is
  prepared once per connection and sent through libpq (`psycopg.pq`) with parameters encoded by their Python types,
  and its answer loaded with the connection's own psycopg loader. Contract: what it answers is what psycopg would
  have; everything else (the pool, connecting, transactions, every other statement) stays psycopg's, and a
  statement interrupted in flight closes its connection. The Store takes it only when `Store(fast_lane=True)`.

What the figures behind each shortcut were, and under what conditions, is in benchmarks/README.md's ledger.
"""
