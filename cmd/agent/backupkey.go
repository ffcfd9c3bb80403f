package main

import (
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/fsedit/backup"
)

// backupKey is the key that signs this user's backups, loaded once. A
// key that cannot be kept is said once on stderr: the backups are then
// signed with a key of this process only, so undo works while it runs
// and later needs --force.
func (f *factory) backupKey() []byte {
	f.keyOnce.Do(func() {
		var err error
		f.key, err = backup.LoadKey(config.UserDir(f.environ()))
		if err != nil && f.io != nil {
			f.warn(err.Error() + "; this run's backups can be undone while it runs, later only with --force")
		}
	})
	return f.key
}
