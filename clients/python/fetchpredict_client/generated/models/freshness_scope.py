from enum import StrEnum


class FreshnessScope(StrEnum):
    ALL = "all"
    PROTOCOL = "protocol"

    def __str__(self) -> str:
        return str(self.value)
