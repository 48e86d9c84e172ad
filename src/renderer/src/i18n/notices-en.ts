// English texts of the notices the main process raises (docs/architecture.md, "Notices"), by code;
// en.ts holds them under `notices`. Plural keys use i18next's _one/_other suffixes.
export const noticesEn = {
  interrupted_chains_one:
    '{{count}} retry chain was cut off when Resolute last stopped; it is marked interrupted in the history.',
  interrupted_chains_other:
    '{{count}} retry chains were cut off when Resolute last stopped; they are marked interrupted in the history.',
  history_backup:
    'This version updated the history to schema {{to}}; a copy as it was (schema {{from}}) is kept at {{path}} for an older version.',
  lock_taken_over: 'Resolute did not shut down cleanly last time (process {{pid}}); its lock was taken over.',
  settings_invalid: 'The settings file was invalid ({{detail}}); it was kept as {{aside}} and defaults are in use.',
  settings_unknown_keys:
    'The settings file has settings this version does not know ({{names}}); they are kept in the file and not used.',
  settings_mcp_skipped:
    'MCP servers in the settings file that are not valid were not started ({{detail}}); they are kept in the file.',
  settings_mcp_secrets_missing:
    'MCP secrets could not be read from the credential store ({{detail}}); enter them again in Settings → MCP.',
  settings_script_cleared: 'The simulator script in the settings file was not valid ({{detail}}); it was cleared.',
  credentials_unreadable:
    'The credentials file could not be read ({{detail}}); it was kept as {{aside}} and a new one is started. Stored API keys are not in use: add them again in Settings → Provider.',
  credentials_undecryptable_one:
    "{{count}} stored API key ({{providers}}) could not be decrypted: the key file .credentials.key is missing or was replaced, or it was sealed by the desktop app's keychain. It stays in {{path}}, unused; restore that key file, or add the key again.",
  credentials_undecryptable_other:
    "{{count}} stored API keys ({{providers}}) could not be decrypted: the key file .credentials.key is missing or was replaced, or they were sealed by the desktop app's keychain. They stay in {{path}}, unused; restore that key file, or add the keys again.",
  keychain_key_file: 'The system keychain is not available: API keys are sealed with the key file in the data folder.',
  keys_not_stored:
    'API keys are not stored: the system keychain is not available and a key file was declined. Give a key with RESOLUTE_API_KEY or --api-key-file, or start again and accept the key file.',
  history_damaged_in_use:
    'The history database at {{path}} is damaged ({{detail}}): the background integrity check found it after start-up. Nothing was moved or deleted. Restart Resolute to move it aside and start a new, empty history (--reset-damaged-history on the command line).',
  compaction_still_too_long:
    'The conversation is still too long for the model after compaction. Start a new chat or shorten the message.',
  bash_off_on_windows:
    'bash is off on Windows: there is no OS sandbox here that Resolute can run commands in, and commands never run unsandboxed. The file tools (read, ls, find, grep, write, edit) still work.',
  turn_save_failed: 'Could not save a turn to history: {{detail}}',
  retry_history_save_failed: 'Could not save retry history: {{detail}}',
  turn_internal_error: 'Internal error while handling a turn: {{detail}}',
  compaction_retry_failed: 'Could not retry after compaction: {{detail}}',
  turn_command_failed: 'The turn could not run: {{detail}}',
  simulator_script_not_applied: 'Simulator script not applied: {{detail}}',
  catalogue_load_failed: 'Could not load the model catalogue: {{detail}}',
  log_write_failed: 'Could not write the log {{path}}: {{detail}}',
  extension_disabled: 'Extension disabled: {{path}}: {{detail}}',
};
