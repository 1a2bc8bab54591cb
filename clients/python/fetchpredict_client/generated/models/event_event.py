from enum import StrEnum


class EventEvent(StrEnum):
    BATTERY = "battery"
    FETCH = "fetch"
    LAUNCH = "launch"
    LOWPOWEROFF = "lowPowerOff"
    LOWPOWERON = "lowPowerOn"
    NETWORK = "network"
    NOTIFICATION = "notification"
    POWERCONNECTED = "powerConnected"
    POWERDISCONNECTED = "powerDisconnected"
    SCREENOFF = "screenOff"
    SCREENON = "screenOn"
    UNLOCK = "unlock"

    def __str__(self) -> str:
        return str(self.value)
