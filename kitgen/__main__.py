"""python -m kitgen"""

from .cli import main

main()
