"""FSRS's own optimizer (PyPI `fsrs-rs-python`, the Rust fsrs-rs that Anki uses) on a review log
Biki fitted, for Biki's fit to be held against.

    python3 Tests/clients/fsrs_fit_reference.py < log.json > reference.json

Reads `{"items": [[[grade, days], ...], ...], "biki": [w0, ..., w20]}`: each item a form's
reviews up to one prediction (its last review), in time order of those predictions, as Anki
hands them to the optimizer. Writes the reference's fitted parameters and, by the reference's
own `evaluate`, the log loss and RMSE(bins) of the defaults, of its parameters and of Biki's.
"""

import json
import sys

from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem, FSRSReview


def main() -> None:
    given = json.load(sys.stdin)
    items = [FSRSItem([FSRSReview(grade, days) for grade, days in item]) for item in given["items"]]
    fitted = list(FSRS(DEFAULT_PARAMETERS).compute_parameters(items))

    def quality(parameters):
        evaluation = FSRS(parameters).evaluate(items)
        return {"logLoss": evaluation.log_loss, "rmseBins": evaluation.rmse_bins}

    json.dump(
        {
            "parameters": fitted,
            "reference": quality(fitted),
            "biki": quality(given["biki"]),
            "defaults": quality(list(DEFAULT_PARAMETERS)),
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
