from enum import StrEnum


class EventValueType1(StrEnum):
    METERED = "metered"
    NONE = "none"
    UNMETERED = "unmetered"

    def __str__(self) -> str:
        return str(self.value)
