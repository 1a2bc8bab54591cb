from enum import StrEnum


class FreshnessFiguresStrategy(StrEnum):
    OBSERVED = "observed"
    ORACLE = "oracle"
    PERIODIC_120 = "periodic-120"
    PERIODIC_30 = "periodic-30"
    PERIODIC_60 = "periodic-60"

    def __str__(self) -> str:
        return str(self.value)
