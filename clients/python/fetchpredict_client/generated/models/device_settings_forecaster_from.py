from enum import StrEnum


class DeviceSettingsForecasterFrom(StrEnum):
    DEVICE = "device"
    SERVICE = "service"

    def __str__(self) -> str:
        return str(self.value)
