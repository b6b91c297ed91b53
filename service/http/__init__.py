"""The HTTP face of the service: routes (one module per resource), who is asking, problem answers, and the edge
(headers, limits, proxies). The page's own files are in `service/page/`."""
