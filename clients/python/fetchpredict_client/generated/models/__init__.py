"""Contains all the data models used in inputs/outputs"""

from .app_freshness import AppFreshness
from .app_habits import AppHabits
from .app_habits_profiles_item import AppHabitsProfilesItem
from .app_habits_state import AppHabitsState
from .app_summary import AppSummary
from .app_wake import AppWake
from .app_wake_reasons_item import AppWakeReasonsItem
from .claim_wakes_body import ClaimWakesBody
from .claim_wakes_response_200 import ClaimWakesResponse200
from .delete_device_response_200 import DeleteDeviceResponse200
from .delete_device_response_200_erased import DeleteDeviceResponse200Erased
from .device_settings import DeviceSettings
from .device_settings_forecaster import DeviceSettingsForecaster
from .device_settings_forecaster_from import DeviceSettingsForecasterFrom
from .device_settings_wakes_per_hour_from import DeviceSettingsWakesPerHourFrom
from .device_wake import DeviceWake
from .error import Error
from .event import Event
from .event_event import EventEvent
from .event_result import EventResult
from .event_value_type_1 import EventValueType1
from .freshness import Freshness
from .freshness_figures import FreshnessFigures
from .freshness_figures_strategy import FreshnessFiguresStrategy
from .freshness_scope import FreshnessScope
from .list_devices_response_200 import ListDevicesResponse200
from .next_wake_response_200 import NextWakeResponse200
from .post_events_body import PostEventsBody
from .post_events_response_200 import PostEventsResponse200
from .put_app_body import PutAppBody
from .put_app_response_200 import PutAppResponse200
from .put_device_body import PutDeviceBody
from .put_device_body_forecaster_type_0 import PutDeviceBodyForecasterType0
from .put_tenant_settings_body import PutTenantSettingsBody
from .schedule import Schedule
from .schedule_low_power_mode import ScheduleLowPowerMode
from .silence import Silence
from .status import Status
from .tenant_settings import TenantSettings
from .wakes import Wakes

__all__ = (
    "AppFreshness",
    "AppHabits",
    "AppHabitsProfilesItem",
    "AppHabitsState",
    "AppSummary",
    "AppWake",
    "AppWakeReasonsItem",
    "ClaimWakesBody",
    "ClaimWakesResponse200",
    "DeleteDeviceResponse200",
    "DeleteDeviceResponse200Erased",
    "DeviceSettings",
    "DeviceSettingsForecaster",
    "DeviceSettingsForecasterFrom",
    "DeviceSettingsWakesPerHourFrom",
    "DeviceWake",
    "Error",
    "Event",
    "EventEvent",
    "EventResult",
    "EventValueType1",
    "Freshness",
    "FreshnessFigures",
    "FreshnessFiguresStrategy",
    "FreshnessScope",
    "ListDevicesResponse200",
    "NextWakeResponse200",
    "PostEventsBody",
    "PostEventsResponse200",
    "PutAppBody",
    "PutAppResponse200",
    "PutDeviceBody",
    "PutDeviceBodyForecasterType0",
    "PutTenantSettingsBody",
    "Schedule",
    "ScheduleLowPowerMode",
    "Silence",
    "Status",
    "TenantSettings",
    "Wakes",
)
