"""The HTTP API v1: one blueprint per resource."""
