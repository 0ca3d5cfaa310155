from cudalint.cli import main

main()
