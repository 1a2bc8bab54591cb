from enum import StrEnum


class DeviceSettingsForecaster(StrEnum):
    DAILY = "daily"
    HAZARD = "hazard"
    PROFILE = "profile"
    TREES = "trees"

    def __str__(self) -> str:
        return str(self.value)
