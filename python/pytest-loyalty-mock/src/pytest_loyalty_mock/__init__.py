"""pytest fixtures for loyalty-mock, and a client of its control API.

The fixtures (``loyalty_mock``, ``loyalty_project``) come with the plugin, which pytest loads by its entry point;
import from here what a test names: the classes, for type hints, and the client, for a server started another way.
"""

from .control import ControlClient, ControlError, ProjectControl
from .server import LoyaltyMock, LoyaltyProject

__all__ = ["ControlClient", "ControlError", "LoyaltyMock", "LoyaltyProject", "ProjectControl"]
