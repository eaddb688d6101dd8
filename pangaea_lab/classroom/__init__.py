"""What a student's Jupyter server needs on the classroom hub (``classroom/``)."""
