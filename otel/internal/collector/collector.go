// Package collector runs a real OpenTelemetry Collector in process, built
// from the collector's own modules: an OTLP receiver (HTTP and gRPC on
// loopback) and the contrib file exporter writing what it receives as OTLP
// JSON, one request a line, the format go tool mage fleet reads. The
// tests of the shipper and the fleet view run against it.
package collector

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/yamlprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

// Config is where the collector listens and writes.
type Config struct {
	// HTTP and GRPC are host:port listen addresses (127.0.0.1:N); an
	// empty one is not opened.
	HTTP, GRPC string
	// Path is the file the file exporter writes (logs and metrics).
	Path string
}

// Collector is a running collector.
type Collector struct {
	col  *otelcol.Collector
	done chan error
}

func (c Config) yaml() string {
	protocols := ""
	if c.HTTP != "" {
		protocols += fmt.Sprintf("      http:\n        endpoint: %q\n", c.HTTP)
	}
	if c.GRPC != "" {
		protocols += fmt.Sprintf("      grpc:\n        endpoint: %q\n", c.GRPC)
	}
	return fmt.Sprintf(`receivers:
  otlp:
    protocols:
%sexporters:
  file:
    path: %q
    flush_interval: 50ms
service:
  telemetry:
    metrics:
      level: none
    logs:
      level: error
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [file]
    metrics:
      receivers: [otlp]
      exporters: [file]
`, protocols, c.Path)
}

func factories() (otelcol.Factories, error) {
	receivers, err := otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory())
	if err != nil {
		return otelcol.Factories{}, err
	}
	exporters, err := otelcol.MakeFactoryMap[exporter.Factory](fileexporter.NewFactory())
	if err != nil {
		return otelcol.Factories{}, err
	}
	return otelcol.Factories{Receivers: receivers, Exporters: exporters, Telemetry: otelconftelemetry.NewFactory()}, nil
}

// Start starts a collector and returns once it runs (or has failed to).
func Start(ctx context.Context, c Config) (*Collector, error) {
	col, err := otelcol.NewCollector(otelcol.CollectorSettings{
		Factories:               factories,
		BuildInfo:               component.BuildInfo{Command: "magehook-test-collector", Description: "magehook's test collector", Version: "test"},
		DisableGracefulShutdown: true,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs:              []string{"yaml:" + c.yaml()},
			ProviderFactories: []confmap.ProviderFactory{yamlprovider.NewFactory()},
		}},
		SkipSettingGRPCLogger: true,
	})
	if err != nil {
		return nil, err
	}
	out := &Collector{col: col, done: make(chan error, 1)}
	go func() { out.done <- col.Run(context.WithoutCancel(ctx)) }()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		switch col.GetState() {
		case otelcol.StateRunning:
			return out, nil
		case otelcol.StateClosed:
			err := <-out.done
			if err == nil {
				err = errors.New("the collector stopped as it started")
			}
			return nil, err
		}
		select {
		case err := <-out.done:
			if err == nil {
				err = errors.New("the collector stopped as it started")
			}
			return nil, err
		case <-ctx.Done():
			col.Shutdown()
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// Stop shuts the collector down (the file exporter flushes) and waits.
func (c *Collector) Stop() error {
	c.col.Shutdown()
	return <-c.done
}
