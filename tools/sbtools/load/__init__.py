"""tools/sbtools/load: the load tools (tools/server_load, tools/load_bench)."""
