package redisqueue_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// ackReplicaTimeout is the WAIT timeout BenchmarkAckPathReplicated gives
// WithReplicas.
const ackReplicaTimeout = 300 * time.Millisecond

// BenchmarkAckPathReplicated measures what WithReplicas(1, 300 ms) costs on
// the ack path: BenchmarkAckPath's contender, its queue and dedup store
// with WithReplicas, so that each enqueue script and WAIT 1 300 go in one
// pipeline, against a primary with one replica attached
// (redistest.StartReplicated: appendonly yes, appendfsync always on both).
// The floor is BenchmarkAckPath's, on that primary: the same verification,
// one raw XADD (no WAIT) and 202. A third side, "unreplicated", is the
// contender without WithReplicas on the same primary, so that the cost of
// the WAIT itself shows apart from the replica's load on the primary.
//
// As in BenchmarkAckPath, b.N deliveries a side from 64 goroutines,
// interleaved in rounds in random order; every delivery must be answered
// 202, so a WAIT that times out (a replica that fell behind) fails the
// benchmark rather than counting as a fast answer.
//
// Reported: the contender's deliveries per second, its throughput as a
// multiple of the floor's and of the unreplicated side's, the p99 latency
// of one ServeHTTP on each side and the contender's p99 over the floor's
// and over the unreplicated side's.
func BenchmarkAckPathReplicated(b *testing.B) {
	primary, _ := redistest.StartReplicated(b)
	addr := primary.Addr
	tag := fmt.Sprintf("bench-%016x", rand.Uint64())
	sides := []*ackSide{
		newAckContender(b, client(b, addr), tag+"-wait",
			[]redisqueue.Option{redisqueue.WithReplicas(1, ackReplicaTimeout)},
			[]redisdedup.Option{redisdedup.WithReplicas(1, ackReplicaTimeout)}),
		newAckFloor(b, client(b, addr), "{"+tag+"}:floor", nil),
		newAckContender(b, client(b, addr), tag+"-nowait", nil, nil),
	}
	sides[0].name, sides[2].name = "WithReplicas", "unreplicated"
	runAckRounds(b, sides)
	contender, floor, nowait := sides[0], sides[1], sides[2]
	b.ReportMetric(float64(b.N)/contender.elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(float64(floor.elapsed)/float64(contender.elapsed), "throughput×floor")
	b.ReportMetric(float64(nowait.elapsed)/float64(contender.elapsed), "throughput×unreplicated")
	b.ReportMetric(ms(p99(contender.lat)), "p99-ms")
	b.ReportMetric(ms(p99(floor.lat)), "floor-p99-ms")
	b.ReportMetric(ms(p99(nowait.lat)), "unreplicated-p99-ms")
	b.ReportMetric(float64(p99(contender.lat))/float64(p99(floor.lat)), "p99×floor")
	b.ReportMetric(float64(p99(contender.lat))/float64(p99(nowait.lat)), "p99×unreplicated")
}
