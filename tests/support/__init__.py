"""What the tests share: waiting for an event, the network helpers, the apps, the command runner.

One home for every helper more than one test module uses; a test module never imports from another
test module.
"""
