"""The language the CLI speaks: chosen once at start-up, spoken by the whole process.

``--lang``, then ``MATHABLE_LANG``, then the profile's (saved by ``mathable-cli language
CODE``), then the machine's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
else English. A value that is not one of ours is passed over (``--lang`` refuses it).
Nothing but the standard library and the config file is read here: English reads no
catalog.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import mathable_i18n
from mathable_cli import config
from mathable_cli.exits import CliError

ENV_LANG = "MATHABLE_LANG"


def profile_language(
    profile: str | None, config_dir_flag: str | None, env: Mapping[str, str]
) -> str | None:
    """The language saved in the profile in use (``mathable-cli language CODE``), or None.

    A config file that cannot be read says nothing here: the command that needs it says why.
    """
    try:
        cfg = config.ConfigFile.load(config.config_dir(config_dir_flag, env))
    except CliError:
        return None
    name = profile or env.get(config.ENV_PROFILE) or cfg.current or config.DEFAULT_PROFILE
    stored = cfg.profiles.get(name)
    return mathable_i18n.language_of(stored.language) if stored is not None else None


def choose(
    flag: str | None = None,
    *,
    profile: str | None = None,
    config_dir_flag: str | None = None,
    env: Mapping[str, str] | None = None,
) -> str:
    """The CLI's language: ``--lang``, ``MATHABLE_LANG``, the profile's, the locale, English.

    >>> choose("fr-CA", env={}), choose(None, env={"MATHABLE_LANG": "no", "LANG": "fr_FR"})
    ('fr', 'nb')
    >>> choose(None, env={"MATHABLE_LANG": "de", "LANG": "it", "MATHABLE_CONFIG_DIR": "/none"})
    'it'
    """
    env = os.environ if env is None else env
    for tag in (flag, env.get(ENV_LANG)):
        lang = mathable_i18n.language_of(tag)
        if lang is not None:
            return lang
    return (
        profile_language(profile, config_dir_flag, env)
        or mathable_i18n.locale_language(dict(env))
        or "en"
    )


def start(
    flag: str | None = None, *, profile: str | None = None, config_dir_flag: str | None = None
) -> str:
    """Choose the language and speak it in this process from now on; returns it."""
    lang = choose(flag, profile=profile, config_dir_flag=config_dir_flag)
    mathable_i18n.use(lang)
    return lang
