"""The peer measurement: dlt's rest_api source loading the same zoo pages into SQLite.

    python dlt_zoo.py PORT DATABASE WORKDIR
"""
import sys

import dlt
from dlt.sources.rest_api import rest_api_source


def main():
    port, database, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    source = rest_api_source({
        "client": {"base_url": f"http://127.0.0.1:{port}/"},
        "resources": [{
            "name": "zoo",
            "endpoint": {
                "path": "api/v1/dataset/6afa114d-38a2-4e3c-9cfd-29d3bd26b65b",
                "params": {"scope": "resourceAquire"},
                "data_selector": "result.results",
                "paginator": {
                    "type": "offset", "limit": 1000, "offset_param": "offset",
                    "limit_param": "limit", "total_path": "result.count",
                },
            },
        }],
    })
    pipeline = dlt.pipeline(
        pipeline_name="zoo_benchmark", pipelines_dir=workdir,
        destination=dlt.destinations.sqlalchemy(f"sqlite:///{database}"), dataset_name="zoo")
    info = pipeline.run(source)
    rows = pipeline.last_trace.last_normalize_info.row_counts.get("zoo", 0)
    print(f"dlt loaded {rows} zoo rows; {info}", file=sys.stderr)


if __name__ == "__main__":
    main()
