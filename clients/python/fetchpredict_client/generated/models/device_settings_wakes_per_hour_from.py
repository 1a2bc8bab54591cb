from enum import StrEnum


class DeviceSettingsWakesPerHourFrom(StrEnum):
    DEVICE = "device"
    NONE = "none"
    STORE = "store"
    TENANT = "tenant"

    def __str__(self) -> str:
        return str(self.value)
