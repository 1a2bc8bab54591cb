from enum import StrEnum


class EventResult(StrEnum):
    FAILED = "failed"
    NEWDATA = "newData"
    NODATA = "noData"

    def __str__(self) -> str:
        return str(self.value)
