"""What an edit leaves valid: positions moved through edits (positions), and the edits of one
directive, statement, procedure, construct or line analysed again from the last analysis."""
