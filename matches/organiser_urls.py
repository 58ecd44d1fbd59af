"""Organiser pages beyond the dashboard: results grid, bracket, exports."""

urlpatterns: list = []
