from tools.case.output import main

main()
