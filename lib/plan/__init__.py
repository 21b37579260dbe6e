"""The planner: a model's shape from its Hugging Face config, its parameter count, and the GPUs a job may run on."""
