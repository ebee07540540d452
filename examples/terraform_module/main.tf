resource "aws_security_group" "web" {
  name = "${local.prefix}-web"

  dynamic "ingress" {
    for_each = var.allowed_ports
    content {
      from_port = ingress.value
      to_port   = ingress.value
    }
  }
}

resource "aws_instance" "this" {
  for_each      = var.instances
  instance_type = each.value.size
  tags          = merge(local.common_tags, { Name = each.key })
}

output "names" {
  value = local.instance_names
}
