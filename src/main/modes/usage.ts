// The command line's help text, alone in its module so that `resolute --help` loads nothing else:
// cli.ts prints it before importing any mode, and after a flag error.

export const USAGE = `Usage: resolute [--mode web|rpc|simulator] [options]

  --mode web          serve the app on 127.0.0.1 (default); prints the URL with its token and
                      opens it in an app window of Chromium, Chrome, Edge or Brave (else the
                      default browser); closing that window stops Resolute
  --mode rpc          JSON lines on stdin/stdout (pi's RPC protocol)
  --mode simulator    run only the built-in simulator provider
  --port N            port for web/simulator (default: a free one)
  --data-dir DIR      where settings, credentials and history live
  --workspace DIR     the folder the agent's tools work in (default: <Documents or home>/Resolute)
  --provider P        simulator | anthropic | openai | google | openrouter | openai-compatible
  --model M           model id
  --base-url URL      alone: an OpenAI-compatible server (Ollama, LM Studio, vLLM); with
                      --provider: that provider's base URL (a proxy, a gateway, a test server)
  --api-key KEY       a key for this run only (never stored); it is visible to other local users
                      in the process list, so prefer RESOLUTE_API_KEY=KEY or --api-key-file
  --api-key-file F    read this run's key from file F (never stored)
  --set group.key=v   override a setting for this run only, e.g. --set retry.baseDelayMs=20
  --extension PATH    load an extension module (RPC and web modes)
  --script S          simulator mode: the fault script, e.g. "503,503,ok"
  --reset-damaged-history  move a damaged history database aside and start a new one
  --no-open           web mode: only print the URL, open nothing (tests, servers)
`;
