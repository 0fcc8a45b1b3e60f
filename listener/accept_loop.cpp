#include "listener/accept_loop.h"

#include <utility>

namespace sb::listener {

AcceptLoop::AcceptLoop(net::ip::tcp::acceptor& acceptor, Place place, Take take)
    : acceptor_(acceptor),
      retry_(acceptor.get_executor()),
      place_(std::move(place)),
      take_(std::move(take)) {}

void AcceptLoop::start() { accept(); }

void AcceptLoop::cancel() { retry_.cancel(); }

void AcceptLoop::accept() {
  acceptor_.async_accept(place_().get_executor(),
                         [this](boost::system::error_code ec, ListenerSocket socket) {
                           on_accept(ec, std::move(socket));
                         });
}

void AcceptLoop::on_accept(boost::system::error_code ec, ListenerSocket socket) {
  if (!acceptor_.is_open() || ec == net::error::operation_aborted) return;
  if (ec) {  // out of descriptors and the like: back off instead of spinning
    ++failures_;
    retry_.expires_after(kAcceptRetry);
    retry_.async_wait([this](boost::system::error_code e) {
      if (!e && acceptor_.is_open()) accept();
    });
    return;
  }
  socket.set_option(net::ip::tcp::no_delay(true), ec);
  if (take_(std::move(socket))) accept();
}

}  // namespace sb::listener
