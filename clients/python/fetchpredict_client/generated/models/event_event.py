from enum import StrEnum


class EventEvent(StrEnum):
    FETCH = "fetch"
    LAUNCH = "launch"
    NOTIFICATION = "notification"
    SCREENOFF = "screenOff"
    SCREENON = "screenOn"
    UNLOCK = "unlock"

    def __str__(self) -> str:
        return str(self.value)
