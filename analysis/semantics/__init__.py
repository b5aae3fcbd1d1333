"""The semantic passes over the model: declare target binding, declare variant resolution, the
call graph, device-type propagation and the workspace's programs; `context` holds what the rules
read of a file and of the workspace, built from these passes on demand."""
