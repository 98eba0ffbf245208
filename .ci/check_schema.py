"""Checks every built-in pack against the published JSON Schema, so the schema editors use
and the validator Biki runs never drift apart."""
import glob
import json
import sys

import jsonschema

schema = json.load(open("TopicPacks/biki-pack.schema.json", encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failed = []
packs = sorted(p for p in glob.glob("TopicPacks/*.json") if not p.endswith(".schema.json"))
for path in packs:
    errors = list(validator.iter_errors(json.load(open(path, encoding="utf-8"))))
    for error in errors:
        print(f"{path}: {'/'.join(map(str, error.path))}: {error.message}")
    if errors:
        failed.append(path)
print(f"{len(packs) - len(failed)} of {len(packs)} built-in packs match the JSON Schema")
sys.exit(1 if failed else 0)
