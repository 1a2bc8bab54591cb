from enum import StrEnum


class PutDeviceBodyForecasterType0(StrEnum):
    DAILY = "daily"
    HAZARD = "hazard"
    PROFILE = "profile"
    TREES = "trees"

    def __str__(self) -> str:
        return str(self.value)
