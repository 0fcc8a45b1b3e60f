"""The corpus generator (tools/corpusgen; README.md here): every message of every protocol
family, the hostile inputs and manifest.json, with the service contract's independent Python
copy (contract.py) that the corpus calls and the interop tests also read."""
