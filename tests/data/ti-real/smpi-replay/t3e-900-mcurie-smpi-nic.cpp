/* SimGrid 3.32 platform (smpirun -platform FILE.so) mirroring t3sim's platforms/t3e-900-mcurie.yaml, variant of
 * t3e-900-mcurie-smpi.xml with a NIC link per node: the same 2x16x17 torus (480 MB/s per direction, 20 ns per hop),
 * plus, on each node, a split-duplex injection/ejection link (network.nic_injection/ejection_bandwidth) whose latency
 * carries a fixed per-message cost (NIC_LAT each way, env T3E_NIC_LAT in seconds, default 4.525e-6 (T3E_HOP_LAT,
 * T3E_NIC_BW likewise): t3sim's 8-byte rendezvous one-way time 9.1 us minus the 1-hop wire time). Built with: g++
 * -std=c++17 -shared -fPIC -o X.so X.cpp -lsimgrid */
#include <cstdlib>
#include <simgrid/s4u.hpp>
#include <string>
namespace sg4 = simgrid::s4u;

static double env_or(const char* name, double dflt) {
  const char* v = std::getenv(name);
  return v ? std::atof(v) : dflt;
}

extern "C" void load_platform(const sg4::Engine& e);
void load_platform(const sg4::Engine&) {
  const double nic_lat = env_or("T3E_NIC_LAT", 4.525e-6);
  const double nic_bw = env_or("T3E_NIC_BW", 480e6);
  const double hop_lat = env_or("T3E_HOP_LAT", 20e-9);
  auto* world = sg4::create_full_zone("world");
  auto netpoint_cb = [nic_lat, nic_bw](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id)
      -> std::pair<simgrid::kernel::routing::NetPoint*, simgrid::kernel::routing::NetPoint*> {
    const std::string i = std::to_string(id);
    auto* node = sg4::create_star_zone("node-" + i);
    node->set_parent(zone);
    const sg4::Host* host = node->create_host("pe-" + i, 900e6);
    const sg4::Link* nic = node->create_split_duplex_link("nic-" + i, nic_bw)->set_latency(nic_lat)->seal();
    node->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {{nic, sg4::LinkInRoute::Direction::UP}}, true);
    /* a message to self is a local copy in t3sim: copy_bandwidth 300 MB/s, local_overhead 0.5 us */
    const sg4::Link* lo = node->create_link("lo-" + i, 300e6)->set_latency(0.5e-6)->seal();
    node->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                    {{lo, sg4::LinkInRoute::Direction::NONE}}, false);
    auto* gw = node->create_router("gw-" + i);
    node->seal();
    return {node->get_netpoint(), gw};
  };
  sg4::ClusterCallbacks callbacks(netpoint_cb);
  auto* torus = sg4::create_torus_zone("t3e", world, {2, 16, 17}, callbacks, 480e6, hop_lat,
                                       sg4::Link::SharingPolicy::SPLITDUPLEX);
  torus->seal();
  world->seal();
}
