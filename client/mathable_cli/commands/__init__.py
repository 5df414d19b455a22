"""The command groups of ``mathable-cli``, one module each; ``register(app)`` adds them."""
