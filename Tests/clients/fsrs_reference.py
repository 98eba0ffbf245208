"""Random review logs scheduled by the reference FSRS (PyPI `fsrs`), for Biki's FSRS to match.

    python3 Tests/clients/fsrs_reference.py LOGS SEED > reference.json

Each log is a run of reviews of one card: a grade (1 again, 2 hard, 3 good, 4 easy) and the
whole days since the review before (0: the same day). After each review the reference gives the
stability, the difficulty and the next interval in days. The scheduler has no learning steps and
no fuzz, as Biki schedules.
"""

import json
import random
import sys
from datetime import datetime, timedelta, timezone

from fsrs import Card, Rating, Scheduler


def main() -> None:
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    logs = []
    for _ in range(count):
        card = Card()
        now = datetime(2026, 1, 1, 12, tzinfo=timezone.utc)
        reviews = []
        for index in range(rng.randint(1, 24)):
            grade = rng.choice([1, 2, 3, 4])
            days = 0 if index == 0 else rng.choice([0, 0, 1, 2, 3, 5, 8, 13, 30, 90, 365, rng.randint(0, 3000)])
            now = now + timedelta(days=days)
            card, _ = scheduler.review_card(card, Rating(grade), review_datetime=now)
            interval = (card.due - now).days
            reviews.append(
                {"grade": grade, "days": days, "stability": card.stability, "difficulty": card.difficulty, "interval": interval}
            )
        logs.append(reviews)
    json.dump({"defaultParameters": list(scheduler.parameters), "logs": logs}, sys.stdout)


if __name__ == "__main__":
    main()
