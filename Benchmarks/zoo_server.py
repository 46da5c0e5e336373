"""A loopback HTTP server that serves N data.taipei-shaped zoo records in offset pages.

The records are the 313 real records of the recorded zoo fixture, replicated with unique
`_id`s and names (`大貓熊 #1234`), in the `{"result": {"count", "limit", "offset", "results"}}`
envelope that data.taipei uses. Pages are built on request from pre-encoded record templates,
so the server is never the bottleneck of a measurement.

    python3 zoo_server.py --records 100000 --port-file /tmp/port
"""
import argparse
import http.server
import json
import os
import socketserver
import sys
import urllib.parse

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "taipei-zoo",
                       "v1-animals-rid6afa114d-full313-2026-03_LEO0331-taipei-zoo-guide.json")


def load_templates():
    """Each real record as JSON text split around its id and name, for fast reassembly."""
    with open(FIXTURE, encoding="utf-8") as handle:
        records = json.load(handle)["result"]["results"]
    templates = []
    for record in records:
        record = dict(record)
        name = record["a_name_ch"]
        record["_id"] = "@@ID@@"
        record["a_name_ch"] = "@@NAME@@"
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        before_id, rest = text.split('"@@ID@@"')
        middle, after = rest.split('"@@NAME@@"')
        templates.append((before_id, middle, json.dumps(name, ensure_ascii=False)[:-1], after))
    return templates


def page(templates, total, offset, limit):
    parts = []
    for index in range(offset, min(total, offset + limit)):
        before_id, middle, name_open, after = templates[index % len(templates)]
        parts.append(f'{before_id}{index + 1}{middle}{name_open} #{index + 1}"{after}')
    body = '{"result":{"limit":%d,"offset":%d,"count":%d,"sort":"","results":[%s]}}' % (
        limit, offset, total, ",".join(parts))
    return body.encode("utf-8")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, required=True)
    parser.add_argument("--port-file", required=True)
    arguments = parser.parse_args()
    templates = load_templates()
    cache = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            offset = int(query.get("offset", ["0"])[0])
            limit = int(query.get("limit", ["1000"])[0])
            key = (offset, limit)
            body = cache.get(key)
            if body is None:
                body = page(templates, arguments.records, offset, limit)
                if len(cache) < 1200:
                    cache[key] = body
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True
        request_queue_size = 128

    server = Server(("127.0.0.1", 0), Handler)
    with open(arguments.port_file, "w") as handle:
        handle.write(str(server.server_address[1]))
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
