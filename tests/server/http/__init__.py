"""Tests of ``mathable_server.http``, the Flask edge: errors and their details, headers,
pages and the web in each language, browser sign-in and sessions, limits (per process,
shared, behind a proxy), waiting requests, request schemas, and the contract (openapi.yaml,
checked strictly, fuzzed, and against bots). The routes of ``http/api``: ``api/``."""
