"""Running scenario files from other test runners (pytest_plugin: pytest's)."""
