# A small service definition: blocks with labels, a heredoc, a `for`
# expression and string interpolation. Expressions refer to a variable
# `var` (an object with `name`, `version` and `regions`) that the
# evaluating program supplies.

owner = "team-payments"

service "http" "checkout" {
  port    = 8080
  workers = 4 * 2
  image   = "registry.example.com/${var.name}:${var.version}"

  health_check {
    path     = "/healthz"
    interval = "10s"
  }

  endpoints = {
    for region in var.regions : region => "https://${var.name}.${region}.example.com"
  }

  motd = <<-EOT
    Welcome to ${var.name} v${var.version}.
    %{ for r in var.regions ~}
    - serving ${r}
    %{ endfor ~}
  EOT
}

service "grpc" "inventory" {
  port    = 9090
  enabled = length(var.regions) > 1 ? true : false
}
