from lanterne.client.cli import main

raise SystemExit(main())
