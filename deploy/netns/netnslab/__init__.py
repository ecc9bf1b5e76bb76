"""The FuelBoard multi-host scale-out lab (deploy/netns/run): network namespaces, services, load, faults."""
