# A service configuration: labelled blocks, repeated blocks, a heredoc,
# and variables and functions provided by the application.

name = "shop-${env}"

service "web" {
  image    = "registry.example.com/shop/web:${version}"
  replicas = env == "prod" ? 3 : 1
  port     = "8080"
  host     = format("%s.%s.example.com", "web", region)

  listener {
    protocol = "http"
    port     = 80
  }

  listener {
    protocol = "https"
    port     = 443
  }

  banner = <<-EOT
    Welcome to ${upper("shop")} (${env})!
    Served from ${region}.
  EOT
}

service "worker" {
  image    = "registry.example.com/shop/worker:${version}"
  replicas = max(2, length(queues))
  port     = 9090
  host     = format("%s.%s.example.com", "worker", region)
  queues   = [for q in queues : lower(q)]
}
