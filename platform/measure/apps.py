from django.apps import AppConfig


class MeasureConfig(AppConfig):
    """Load, flood and benchmark commands: above every app, installed only when asked (``MEASURE_TOOLS``)."""

    name = "measure"
    verbose_name = "Measurement tools"
