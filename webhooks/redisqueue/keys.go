package redisqueue

import (
	"errors"
	"strings"

	"github.com/redis/go-redis/v9"
)

// hashed is the part of key that Redis Cluster hashes to choose its slot:
// the text between the first "{" and the first "}" after it, when that is
// not empty, or else the whole key.
func hashed(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// recordBase is the start of the event records' keys: the stream's name
// when it has a hash tag, or else the name wrapped in braces, which hashes
// like the bare name. Either way the records share the stream's slot.
func recordBase(stream string) (string, error) {
	if hashed(stream) != stream {
		return stream, nil
	}
	if strings.ContainsAny(stream, "{}") {
		return "", errors.New("redisqueue: a stream name with braces must hold a hash tag, such as {app}:events")
	}
	return "{" + stream + "}", nil
}

// checkSlots refuses streams that a cluster client would keep in two slots:
// DeadLetter and Replay touch both in one script.
func checkSlots(client redis.UniversalClient, stream, dead string) error {
	if _, ok := client.(*redis.ClusterClient); ok && hashed(stream) != hashed(dead) {
		return errors.New("redisqueue: on Redis Cluster the stream and the dead-letter stream need one hash tag, such as {app}:events and {app}:dead")
	}
	return nil
}

// recordKey is the key of the record of event id.
func (q *Queue) recordKey(id string) string { return q.records + ":event:" + id }
